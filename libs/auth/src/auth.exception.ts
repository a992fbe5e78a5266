import { PayhookError } from '@payhook/contracts';

export class AuthException extends PayhookError {}
