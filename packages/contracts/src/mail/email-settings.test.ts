import { describe, expect, it } from 'vitest';
import { EmailConfigUpdateSchema, isSmtpHost, SMTP_HOST_MESSAGE, SMTP_PORT_MESSAGE } from './email-settings.js';

const base = { smtp_servername: 'mail.example.org', smtp_port: 587, from_email_address: 'office@example.org' };
const issues = (change: object) => EmailConfigUpdateSchema.safeParse({ ...base, ...change }).error?.issues.map((i) => [i.path.join('.'), i.message]) ?? [];

describe('Email settings: the SMTP server', () => {
  it.each(['mail.example.org', 'localhost', 'smtp-1.mail.example.org', 'mail.example.org.', '127.0.0.1', '10.0.0.25', '::1', '2001:db8::25', '::ffff:192.0.2.1', '2001:0db8:0000:0000:0000:ff00:0042:8329'])(
    'accepts the host name or IP address %s',
    (host) => {
      expect(isSmtpHost(host)).toBe(true);
      expect(issues({ smtp_servername: host })).toEqual([]);
    },
  );

  it.each([
    'smtp example org',
    'smtp://mail.example.org:587',
    'mail.example.org:587',
    'mail.example.org/submit',
    'mail..example.org',
    '-mail.example.org',
    'mail_server.example.org',
    '999.1.1.1',
    '10.1',
    '1:2:3:4:5:6:7:8:9',
    '[::1]',
    `${'a'.repeat(64)}.example.org`,
  ])('refuses %j with one message naming smtp_servername', (host) => {
    expect(isSmtpHost(host)).toBe(false);
    expect(issues({ smtp_servername: host })).toEqual([['smtp_servername', SMTP_HOST_MESSAGE]]);
  });

  it('refuses a header smuggled in after a line break with the one-line message (decision 060)', () => {
    expect(isSmtpHost('mail.example.org\r\nBcc: x')).toBe(false);
    expect(issues({ smtp_servername: 'mail.example.org\r\nBcc: x' })).toEqual([['smtp_servername', 'SMTP server must be one line (no line breaks)']]);
  });

  it('an empty server is "required", not also a bad host name', () => {
    expect(issues({ smtp_servername: '  ' })).toEqual([['smtp_servername', 'SMTP server is required']]);
  });
});

describe('Email settings: the SMTP port', () => {
  it.each([['25'], [25.5], [0], [70000], [-1], [true]])('refuses %j as "a whole number 1–65535"', (port) => {
    expect(issues({ smtp_port: port })).toEqual([['smtp_port', SMTP_PORT_MESSAGE]]);
  });

  it('a missing port is "required"; 1 and 65535 are fine', () => {
    expect(issues({ smtp_port: undefined })).toEqual([['smtp_port', 'SMTP port is required']]);
    expect(issues({ smtp_port: null })).toEqual([['smtp_port', 'SMTP port is required']]);
    expect(issues({ smtp_port: 1 })).toEqual([]);
    expect(issues({ smtp_port: 65535 })).toEqual([]);
  });
});
