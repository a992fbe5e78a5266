import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';

/** One e-mail as the SMTP server got it: the envelope's recipients and the message's subject and text. */
export interface ReceivedEmail {
  from: string;
  to: string[];
  subject: string;
  text: string;
}

/** Unfolded header lines, then the body with quoted-printable soft breaks and escapes undone (ASCII mail). */
function parse(raw: string): { subject: string; text: string } {
  const split = raw.indexOf('\r\n\r\n');
  const headers = raw.slice(0, split).replace(/\r\n[ \t]+/g, ' ');
  const subject = /^Subject: (.*)$/im.exec(headers)?.[1] ?? '';
  const body = raw.slice(split + 4);
  const text = /^Content-Transfer-Encoding: quoted-printable$/im.test(headers)
    ? body.replace(/=\r\n/g, '').replace(/=([0-9A-F]{2})/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)))
    : body;
  return { subject, text: text.replace(/\r\n/g, '\n') };
}

/**
 * A real SMTP server on a free loopback port (the `smtp-server` package), with a user and password,
 * keeping every e-mail it accepts. No STARTTLS: its certificate would be self-signed.
 */
export class SmtpInbox {
  static readonly USER = 'payhook-notices';
  static readonly PASSWORD = 'smtp-password-that-must-never-be-logged';

  private constructor(
    private readonly server: SMTPServer,
    /** Every e-mail accepted, in order. */
    readonly received: ReceivedEmail[],
  ) {}

  static async start(): Promise<SmtpInbox> {
    const received: ReceivedEmail[] = [];
    const server = new SMTPServer({
      disabledCommands: ['STARTTLS'],
      allowInsecureAuth: true,
      logger: false,
      onAuth: (auth, _session, done) =>
        auth.username === SmtpInbox.USER && auth.password === SmtpInbox.PASSWORD
          ? done(null, { user: auth.username })
          : done(new Error('Invalid username or password')),
      onData: (stream, session, done) => {
        const chunks: Buffer[] = [];
        stream.on('data', (chunk: Buffer) => chunks.push(chunk));
        stream.on('end', () => {
          const envelope = session.envelope;
          received.push({
            from: envelope.mailFrom ? envelope.mailFrom.address : '',
            to: envelope.rcptTo.map((recipient) => recipient.address),
            ...parse(Buffer.concat(chunks).toString('utf8')),
          });
          done();
        });
      },
    });
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(0, '127.0.0.1', () => resolve());
    });
    return new SmtpInbox(server, received);
  }

  /** SMTP_URL for payhook, password included. */
  get url(): string {
    return `smtp://${SmtpInbox.USER}:${SmtpInbox.PASSWORD}@127.0.0.1:${this.port}`;
  }

  get port(): number {
    return (this.server.server.address() as AddressInfo).port;
  }

  /** The e-mails whose envelope names `address`. */
  to(address: string): ReceivedEmail[] {
    return this.received.filter((email) => email.to.includes(address));
  }

  stop(): Promise<void> {
    return new Promise((resolve) => this.server.close(() => resolve()));
  }
}
