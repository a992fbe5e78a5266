import { PayhookError } from '@payhook/contracts';

export class EventException extends PayhookError {}
