// The deposits feature's door: what the other rooms and the surfaces may use of it.
// Its module and service, for the payment screen's bank-transfer page (its deposit code).
export { DepositsModule } from './deposits.module';
export { DepositsService } from './deposits.service';
// How a deposit code is shown, the same on the payment screen and the console.
export { formatDepositCode } from './deposit-code';
// Its response shapes, for the OpenAPI documents the docs surface assembles.
export { DEPOSIT_SCHEMAS } from './deposits.schemas';
