import { PayhookError } from '@payhook/contracts';

export class WebhookEndpointException extends PayhookError {}
