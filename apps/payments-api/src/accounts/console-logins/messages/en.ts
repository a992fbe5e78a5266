/**
 * The English of the e-mails about a member's console login (login-emails.ts): a password reset
 * link, and the warning after too many wrong two-step codes. ICU MessageFormat; plain text, a
 * message's `\n` are the e-mail's lines. Korean in ko.ts.
 */
export const en = {
  'reset.subject': 'Set a new password for your payhook console login',
  'reset.text':
    'Someone asked to set a new password for the payhook console login {email}.\n\n' +
    'Set it here (the link works once, for {minutes, plural, one {# minute} other {# minutes}}):\n{link}\n\n' +
    'It sets the password of your console login at every merchant whose team you belong to with this ' +
    'address. Your two-step login, if it is on, stays as it is. If you did not ask, ignore this e-mail: ' +
    'your password is unchanged.\n',

  'wrongCodes.subject': 'Wrong two-step codes for your payhook console login',
  'wrongCodes.text':
    'Someone signed in to the payhook console as {email} with your password, then gave ' +
    '{max, plural, one {# wrong two-step code} other {# wrong two-step codes}} within ' +
    '{minutes, plural, one {# minute} other {# minutes}}. Two-step codes for your login are paused for up to ' +
    '{minutes, plural, one {# minute} other {# minutes}}.\n\n' +
    'If that was you, there is nothing to do. If it was not, someone knows your password: ' +
    "ask your team's owner to remove the login, and set a new password.\n",
} as const;

export type LoginMailKey = keyof typeof en;
