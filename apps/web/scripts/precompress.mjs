// After `vite build`: a brotli (.br) and a gzip (.gz) copy of every text file of dist, at the best levels, so
// the server sends them as they are (express-static-gzip) instead of compressing on each request.
import { readdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';

const dist = path.resolve(import.meta.dirname, '../dist');
const TEXT = /\.(js|css|html|svg|json|txt|webmanifest)$/;

let files = 0;
for (const entry of await readdir(dist, { recursive: true, withFileTypes: true })) {
  if (!entry.isFile() || !TEXT.test(entry.name)) continue;
  const file = path.join(entry.parentPath, entry.name);
  const content = await readFile(file);
  await writeFile(`${file}.br`, brotliCompressSync(content, { params: { [constants.BROTLI_PARAM_QUALITY]: 11, [constants.BROTLI_PARAM_SIZE_HINT]: content.length } }));
  await writeFile(`${file}.gz`, gzipSync(content, { level: 9 }));
  files++;
}
console.log(`precompressed ${files} files (.br, .gz)`);
