import type { MemberRole } from '../../../accounts/team';

/**
 * Why a console request stops before its handler; ConsoleExceptionFilter turns each into a page in
 * the reader's language (or, for a missing session, a redirect to the login form). The message is
 * for the log; a refused role names the role needed and the role held, for the page to say.
 */
export class ConsoleException extends Error {
  constructor(
    readonly reason: 'login_required' | 'second_step_required' | 'role_refused' | 'csrf_invalid' | 'not_found',
    message: string,
    readonly roles?: { needed: MemberRole; held: MemberRole },
  ) {
    super(message);
    this.name = 'ConsoleException';
  }
}
