import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';

export interface AcceptingSmtp {
  port: number;
  /** Messages accepted so far. */
  accepted(): number;
  close(): Promise<void>;
}

/** The benches' SMTP server (the `smtp-server` package) on a free local port: accepts every message and counts it. */
export async function startAcceptingSmtp(): Promise<AcceptingSmtp> {
  let accepted = 0;
  const smtp = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    size: 50 * 1024 * 1024,
    onData(stream, _session, callback) {
      stream.on('data', () => undefined);
      stream.on('end', () => {
        accepted++;
        callback(null, 'Queued');
      });
    },
  });
  await new Promise<void>((resolve) => smtp.listen(0, '127.0.0.1', resolve));
  return {
    port: (smtp.server.address() as AddressInfo).port,
    accepted: () => accepted,
    close: () => new Promise<void>((resolve) => smtp.close(() => resolve())),
  };
}
