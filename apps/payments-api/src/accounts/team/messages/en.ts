/**
 * The English of the e-mail that invites someone to a merchant's team (invite-email.ts). ICU
 * MessageFormat; plain text, a message's `\n` are the e-mail's lines. Korean in ko.ts.
 */
export const en = {
  'invite.subject': 'You are invited to a payhook console',
  'invite.text':
    "You were invited as {role, select, owner {owner} developer {developer} other {viewer}} to a merchant's " +
    'payhook console.\n\n' +
    'Set your password here (the link works once, for {hours, plural, one {# hour} other {# hours}}):\n{link}\n',
} as const;

export type TeamMailKey = keyof typeof en;
