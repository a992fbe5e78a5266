import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';

/** One e-mail as the SMTP server got it: the envelope's recipients and the message's subject and text. */
export interface ReceivedEmail {
  from: string;
  to: string[];
  subject: string;
  text: string;
}

/** The bytes of quoted-printable text (`=EC=9B=B9` → 0xEC 0x9B 0xB9; everything else is ASCII). */
const quotedPrintable = (text: string): Buffer =>
  Buffer.from(
    text.replace(/=([0-9A-F]{2})/gi, (_, hex: string) => String.fromCharCode(parseInt(hex, 16))),
    'latin1',
  );

const ENCODED_WORD = /=\?UTF-8\?([QB])\?([^?]*)\?=/gi;

/**
 * A header with its RFC 2047 encoded words (`=?UTF-8?Q?…?=`, how nodemailer sends a Korean subject)
 * decoded: a run of them is one UTF-8 text, the white space between them is not part of it.
 */
function decodeHeader(value: string): string {
  const run = new RegExp(`${ENCODED_WORD.source}(?:\\s+${ENCODED_WORD.source})*`, 'gi');
  return value.replace(run, (words) =>
    Buffer.concat(
      [...words.matchAll(ENCODED_WORD)].map(([, encoding, word]) =>
        encoding.toUpperCase() === 'B' ? Buffer.from(word, 'base64') : quotedPrintable(word.replace(/_/g, ' ')),
      ),
    ).toString('utf8'),
  );
}

/** Unfolded header lines, then the body with its transfer encoding (quoted-printable, base64) undone, as UTF-8. */
function parse(raw: string): { subject: string; text: string } {
  const split = raw.indexOf('\r\n\r\n');
  const headers = raw.slice(0, split).replace(/\r\n[ \t]+/g, ' ');
  const subject = decodeHeader(/^Subject: (.*)$/im.exec(headers)?.[1] ?? '');
  const body = raw.slice(split + 4);
  const encoding = /^Content-Transfer-Encoding: (.*)$/im.exec(headers)?.[1].trim().toLowerCase();
  const text =
    encoding === 'quoted-printable'
      ? quotedPrintable(body.replace(/=\r\n/g, '')).toString('utf8')
      : encoding === 'base64'
        ? Buffer.from(body, 'base64').toString('utf8')
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
