// The console logins' door: sign-in, sessions and password resets, for the console's pages.
export { CHOICE_VALID_MINUTES, ConsoleAuthService, MAX_SECOND_STEP_ATTEMPTS } from './console-auth.service';
export type { LoginResult, SecondStepResult, SecondStepThrottled } from './console-auth.service';
export { ConsoleLoginsModule } from './console-logins.module';
export { ConsolePasswordResetService, RESET_LINK_VALID_MINUTES } from './console-password-reset.service';
export type { ResetRequestResult } from './console-password-reset.service';
export { SESSION_TTL_HOURS } from './console-session';
export type { ConsoleMember, ConsoleMerchant, ConsoleSession } from './console-session';
