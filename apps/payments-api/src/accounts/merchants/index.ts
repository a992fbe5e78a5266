// The merchants feature's door: what the other rooms may use of it.
export { MerchantsModule } from './merchants.module';
