// The escrow feature's door (구매안전서비스): what the buyer's page and the console use of it.
export { EscrowModule } from './escrow.module';
export { EscrowService, type BuyerMoveOutcome } from './escrow.service';
export type { BuyerEscrow } from './escrow.repository';
export { isRejectReason, REJECT_REASON_RULE } from './dto/reject-escrow.request.dto';
export { ShipmentRequestDto } from './dto/shipment.request.dto';
