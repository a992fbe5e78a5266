// The merchants feature's door: what the other rooms may use of it.
export { MerchantsModule } from './merchants.module';
// A console password's length, which the console's password forms keep too.
export { CONSOLE_PASSWORD_MAX_CHARS, CONSOLE_PASSWORD_MIN_CHARS } from './dto/approve-merchant.request.dto';
