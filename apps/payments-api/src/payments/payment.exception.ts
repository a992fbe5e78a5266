import { PayhookError } from '@payhook/contracts';

export class PaymentException extends PayhookError {}
