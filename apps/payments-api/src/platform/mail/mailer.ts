import { Inject, Injectable, Logger, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import { createTransport, type Transporter } from 'nodemailer';
import { PaymentsApiEnv } from '../config/payments-api.env';

/** One plain-text e-mail. */
export interface OutgoingEmail {
  to: string[];
  subject: string;
  text: string;
  /**
   * What the log shows instead of `text` when SMTP_URL is unset, for an e-mail that carries a bearer
   * secret (a buyer's link): the text with the secret left out. No log ever holds it.
   */
  textForLog?: string;
}

/** How long the SMTP server may take to answer: a hung server must not hold a sender's turn for long. */
const SMTP_TIMEOUTS = { connectionTimeout: 10_000, greetingTimeout: 10_000, socketTimeout: 30_000 };

/**
 * Every e-mail payhook sends goes through here: through SMTP_URL, or, when it is unset, into the log,
 * so a newcomer running payhook on their machine still sees what would have been sent. SMTP_URL may
 * hold a password: only its host is ever logged.
 */
@Injectable()
export class Mailer implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger(Mailer.name);
  private readonly transport: Transporter | null;
  private readonly from: string;
  private readonly host: string | null;

  constructor(@Inject(PaymentsApiEnv) env: PaymentsApiEnv) {
    this.host = env.smtpHost;
    this.from = env.SMTP_FROM;
    this.transport = env.SMTP_URL ? createTransport({ url: env.SMTP_URL, ...SMTP_TIMEOUTS }) : null;
  }

  /** Whether e-mail really leaves (SMTP_URL is set). */
  get enabled(): boolean {
    return this.transport !== null;
  }

  onApplicationBootstrap(): void {
    if (this.host) this.logger.log(`e-mail is on: sent through the SMTP server at ${this.host}`);
    else this.logger.log('e-mail is off (SMTP_URL is not set): e-mails to merchants are written to this log instead');
  }

  onApplicationShutdown(): void {
    this.transport?.close();
  }

  /** Resolves once the SMTP server accepted it (or it was logged); rejects with the server's reason. */
  async send(email: OutgoingEmail): Promise<void> {
    if (!this.transport) {
      this.logger.log(
        `e-mail not sent (SMTP_URL is not set) to ${email.to.join(', ')}: ${email.subject}\n${email.textForLog ?? email.text}`,
      );
      return;
    }
    await this.transport.sendMail({ from: this.from, to: email.to, subject: email.subject, text: email.text });
  }
}
