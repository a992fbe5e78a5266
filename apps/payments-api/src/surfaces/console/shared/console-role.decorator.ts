import { SetMetadata } from '@nestjs/common';
import type { MemberRole } from '../../../accounts/team';

export const CONSOLE_ROLE = 'payhook:console-role';

/**
 * The least role a console route needs. Without it a page (GET) needs `viewer` and a
 * form (POST) `owner`: a new form is closed to everyone but owners until it says otherwise.
 */
export const ConsoleRole = (role: MemberRole) => SetMetadata(CONSOLE_ROLE, role);

export const BEFORE_SECOND_STEP = 'payhook:console-before-second-step';

/** A route a session may use while it still owes its two-step code: logging out, to start over. */
export const BeforeSecondStep = () => SetMetadata(BEFORE_SECOND_STEP, true);
