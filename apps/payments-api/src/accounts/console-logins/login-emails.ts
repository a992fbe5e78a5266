import type { Locale } from '../../platform/i18n/locale';
import type { OutgoingEmail } from '../../platform/mail/mailer';
import { loginMailT } from './messages';

/** A password reset link for the console login `to`, plain text, in `locale`. The link is a credential: this e-mail only. */
export function passwordResetEmail(
  locale: Locale,
  reset: { to: string; link: string; validMinutes: number },
): OutgoingEmail {
  const t = loginMailT(locale);
  return {
    to: [reset.to],
    subject: t('reset.subject'),
    text: t('reset.text', { email: reset.to, link: reset.link, minutes: reset.validMinutes }),
  };
}

/** The warning to the member `to` that `max` wrong two-step codes were given within `windowMinutes`. */
export function wrongCodesEmail(
  locale: Locale,
  warning: { to: string; max: number; windowMinutes: number },
): OutgoingEmail {
  const t = loginMailT(locale);
  return {
    to: [warning.to],
    subject: t('wrongCodes.subject'),
    text: t('wrongCodes.text', { email: warning.to, max: warning.max, minutes: warning.windowMinutes }),
  };
}
