/**
 * Why a console request stops before its handler; ConsoleExceptionFilter turns each into a page
 * (or, for a missing session, a redirect to the login form).
 */
export class ConsoleException extends Error {
  constructor(
    readonly reason: 'login_required' | 'second_step_required' | 'role_refused' | 'csrf_invalid' | 'not_found',
    message: string,
  ) {
    super(message);
    this.name = 'ConsoleException';
  }
}
