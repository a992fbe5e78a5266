export { CashReceiptsModule } from './cash-receipts.module';
export { CashReceiptsService } from './cash-receipts.service';
export { CashReceiptIdentities } from './cash-receipt-identities';
export { CashReceiptRequestDto } from './dto/cash-receipt-request.dto';
export { validIdentityNumber, maskIdentityNumber, IDENTITY_NUMBER_RULES } from './identity-number';
// Its response shapes, for the OpenAPI documents the docs surface assembles.
export { CASH_RECEIPT_SCHEMAS } from './cash-receipts.schemas';
