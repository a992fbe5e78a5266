/**
 * The team pages' English: members and roles, invites, removing a member, the page an invite link
 * opens, and what the controllers say after a change or a refusal. ICU MessageFormat; Korean in
 * ko.ts, with the same keys.
 */
export const en = {
  'role.name': '{role, select, owner {owner} developer {developer} other {viewer}}',
  'role.owner': 'Owner: everything, including the team',
  'role.developer': 'Developer: keys, webhooks, integration test, payments and refunds',
  'role.viewer': 'Viewer: reads only',

  'team.title': 'Team',
  'team.members': 'Members',
  'team.email': 'Email',
  'team.role': 'Role',
  'team.twoStep': 'Two-step',
  'team.twoStep.on': 'on',
  'team.twoStep.off': 'off',
  'team.since': 'Since',
  'team.change': 'Change',
  'team.you': '(you)',
  'team.roleOf': 'Role of {email}',
  'team.changeRole': 'Change role',
  'team.remove': 'Remove {email}',
  'team.ownersOnly': 'Only an owner can invite, remove or change members.',

  'invites.new': 'Invite someone',
  'invites.make': 'Make invite',
  'invites.title': 'Invites',
  'invites.state': 'State',
  'invites.validUntil': 'Valid until',
  'invites.resend': 'Send invite to {email} again',
  'invites.revoke': 'Revoke invite to {email}',
  'invites.issued.link':
    'Invite for {email} ({role}) made. Send them this link; it is shown only now, works once and for 72 hours (e-mail is off on this payhook, so it was not sent):',
  'invites.issued.emailed':
    'Invite for {email} ({role}) sent to that address. Its link works once and for 72 hours; if it does not arrive, send it again below.',
  'invites.issued.notSent':
    'Invite for {email} ({role}) made, but the e-mail server did not take it. Send it again below.',

  'notice.roleChanged': 'Role changed. It counts from the member’s next page.',
  'notice.removed': 'Member removed and signed out everywhere.',
  'notice.inviteRevoked': 'Invite revoked: its link no longer works.',

  'error.inviteRole': 'Choose a role for the invite.',
  'error.role': 'Choose one of the roles.',
  'error.inviteEmail': 'Enter the e-mail address of the person to invite.',
  'error.alreadyMember': '{email} is already a member of this team.',
  'error.tooManyInvites': 'Too many invites today, from this team or to this address; try again tomorrow.',
  'error.inviteNotOpen':
    'This invite is no longer open, or was sent again 3 times already: revoke it and invite again.',
  'error.noOpenInvite': 'No such open invite.',
  'error.noMember': 'No such member.',
  'error.lastOwnerRole': 'The last owner keeps the owner role: make another member owner first.',
  'error.lastOwnerRemove': 'The last owner cannot be removed: make another member owner first.',

  'remove.title': 'Remove member',
  'remove.heading': 'Remove {email} from {merchant}?',
  'remove.headingSelf': 'Remove yourself from {merchant}?',
  'remove.text':
    "{email} ({role}) is signed out everywhere at once and can no longer sign in to this merchant's console. What they did stays in the audit log.",
  'remove.textSelf':
    "You are signed out everywhere at once and can no longer sign in to this merchant's console. What you did stays in the audit log.",
  'remove.button': 'Remove {email}',
  'remove.buttonSelf': 'Remove myself',
  'remove.cancel': 'Cancel',

  'join.title': 'Join the team',
  'join.text': 'You were invited to the team of {merchant} as {role}, with the login {email}.',
  'join.password': 'Password ({min} to {max} characters)',
  'join.passwordAgain': 'Password again',
  'join.submit': 'Set password and join',
  'join.unusable.title': 'Invite not usable',
  'join.unusable':
    'This invite link was used already, has expired (links work for 72 hours) or is unknown. Ask an owner of the account for a new one.',
} as const;

export type TeamKey = keyof typeof en;
