import { Module } from '@nestjs/common';
import { Mailer } from './mailer';

/** Outgoing e-mail (SMTP_URL), for every feature that tells a person something. */
@Module({ providers: [Mailer], exports: [Mailer] })
export class MailModule {}
