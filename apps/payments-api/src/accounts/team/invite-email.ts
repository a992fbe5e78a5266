import type { Locale } from '../../platform/i18n/locale';
import type { OutgoingEmail } from '../../platform/mail/mailer';
import type { MemberRole } from './member-role';
import { teamMailT } from './messages';

/**
 * The invite to `to`, plain text, in `locale`: the language the inviting member reads the console
 * in (the invited person has none of their own yet). `link` is a credential: it goes in this e-mail only.
 */
export function inviteEmail(
  locale: Locale,
  invite: { to: string; role: MemberRole; link: string; validHours: number },
): OutgoingEmail {
  const t = teamMailT(locale);
  return {
    to: [invite.to],
    subject: t('invite.subject'),
    text: t('invite.text', { role: invite.role, hours: invite.validHours, link: invite.link }),
  };
}
