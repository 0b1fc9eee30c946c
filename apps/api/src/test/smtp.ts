import type { AddressInfo } from 'node:net';
import { afterAll } from 'vitest';
import { SMTPServer, type SMTPServerDataStream, type SMTPServerSession } from 'smtp-server';
import { simpleParser, type ParsedMail } from 'mailparser';

/** What the server does with the next message's DATA (default: accept it). */
export type DataBehaviour =
  | { kind: 'accept' }
  | { kind: 'refuse'; code: number; message: string }
  /** Hold the reply to DATA until `release()` is called, then accept. */
  | { kind: 'hold'; held: () => void; release: Promise<void> }
  /** Read the whole message, then cut the connection without answering. */
  | { kind: 'drop' };

export interface TestSmtpServer {
  port: number;
  /** Messages the server accepted, parsed. */
  received: ParsedMail[];
  /** Every DATA the server read, accepted or not (the raw bytes). */
  dataCount: () => number;
  /** Credentials the clients logged in with. */
  logins: { username: string; password: string }[];
  /** Connections the server took, in all and still open. */
  connections: () => { opened: number; open: number };
  /** While true, a second message on one connection is turned away with 421, as servers that limit it do. */
  oneMessagePerConnection: boolean;
  /** Behaviours for the next messages, taken one per message; when empty, messages are accepted. */
  next: DataBehaviour[];
  /** Waits until `received` holds `count` messages. */
  waitForMessages(count: number, timeoutMs?: number): Promise<ParsedMail[]>;
}

/**
 * A real SMTP server on a free local port (DESIGN §9: mail tests deliver to a real server and read what arrived),
 * closed after the file's tests. Plain connection; AUTH accepted when the credentials are `username`/`password`.
 */
export async function startTestSmtp(options: { username?: string; password?: string } = {}): Promise<TestSmtpServer> {
  const received: ParsedMail[] = [];
  const logins: { username: string; password: string }[] = [];
  const next: DataBehaviour[] = [];
  let datas = 0;
  let opened = 0;
  let closed = 0;
  const server: SMTPServer = new SMTPServer({
    authOptional: true,
    onConnect(_session, callback) {
      opened++;
      callback();
    },
    onClose() {
      closed++;
    },
    onMailFrom(_address, session, callback) {
      if (handle.oneMessagePerConnection && session.transaction > 1) {
        const err = new Error('Too many messages on this connection') as Error & { responseCode: number };
        err.responseCode = 421;
        callback(err);
        return;
      }
      callback();
    },
    allowInsecureAuth: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onAuth(auth, _session, callback) {
      logins.push({ username: auth.username ?? '', password: auth.password ?? '' });
      if (options.username && (auth.username !== options.username || auth.password !== options.password)) {
        callback(new Error('Invalid username or password'));
        return;
      }
      callback(null, { user: auth.username });
    },
    onData(stream: SMTPServerDataStream, session: SMTPServerSession, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', () => {
        datas++;
        const behaviour = next.shift() ?? { kind: 'accept' };
        const accept = () => {
          void simpleParser(Buffer.concat(chunks)).then((mail) => {
            received.push(mail);
            callback(null, 'Queued as test');
          });
        };
        switch (behaviour.kind) {
          case 'accept':
            accept();
            return;
          case 'refuse': {
            const err = new Error(behaviour.message) as Error & { responseCode: number };
            err.responseCode = behaviour.code;
            callback(err);
            return;
          }
          case 'hold':
            behaviour.held();
            void behaviour.release.then(accept);
            return;
          case 'drop':
            for (const connection of (server as unknown as { connections: Set<{ id: string; _socket: { destroy(): void } }> }).connections) {
              if (connection.id === session.id) connection._socket.destroy();
            }
            return;
        }
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.server.address() as AddressInfo).port;
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));
  const handle: TestSmtpServer = {
    port,
    received,
    logins,
    next,
    dataCount: () => datas,
    connections: () => ({ opened, open: opened - closed }),
    oneMessagePerConnection: false,
    async waitForMessages(count, timeoutMs = 10_000) {
      const until = Date.now() + timeoutMs;
      while (received.length < count) {
        if (Date.now() > until) throw new Error(`expected ${count} messages, got ${received.length}`);
        await new Promise((r) => setTimeout(r, 25));
      }
      return received;
    },
  };
  return handle;
}
