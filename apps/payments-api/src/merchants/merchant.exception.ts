import { PayhookError } from '@payhook/contracts';

export class MerchantException extends PayhookError {}
