import autocannon from 'autocannon';
const token = (await import('node:fs')).readFileSync('/tmp/prof/token', 'utf8').trim();
const port = process.argv[2] ?? '4100';
const conns = Number(process.argv[3] ?? 32);
const mix = [
  '/students', '/students?page=2', '/students?page=37&sort=city|asc', '/students?sort=first_name|desc', '/students?search=Eze%20', '/students?address=37073',
  '/students/100000', '/contracts', '/contracts?page=3', '/contracts?sort=start_date|desc&page=12', '/contracts?intake=2024&contract_status_id=5',
  '/contracts?search=Dubo', '/contracts/100000', '/logging', '/contracts?open=true', '/invoices?planned=true&sort=document_reference|asc',
  '/invoices?numbered=true&sort=number|asc&page=4', '/invoices?numbered=true&open=true&sort=number|asc', '/invoices?creditnote=true&sort=number|asc',
  '/invoices?numbered=true&sort=number|asc&contract_id=100000',
];
const r = await autocannon({ url: `http://127.0.0.1:${port}`, connections: conns, duration: 10, headers: { authorization: `Bearer ${token}` }, requests: mix.map((p) => ({ method: 'GET', path: `/api/v1.0${p}` })) });
console.log(`p50 ${r.latency.p50} p99 ${r.latency.p99} req/s ${Math.round(r.requests.average)} non2xx ${r.non2xx} errors ${r.errors}`);
