import { IsDefined, IsIn, IsOptional, Matches } from 'class-validator';
import { IsPrintableText } from '../../http/validators';
import { REVIEW_ACTIONS, type ReviewAction } from '../review-case.view';
import { PageQueryDto } from '../../http/page-query.dto';

export class ResolveReviewRequestDto {
  @IsDefined()
  @IsIn(REVIEW_ACTIONS, { message: 'must be complete, reject or refund' })
  action!: ReviewAction;

  /** Who decided: the operator API has one token, so the person is named here and kept with the case. */
  @IsDefined()
  @IsPrintableText(200)
  resolvedBy!: string;

  @IsOptional()
  @IsPrintableText(2000)
  note?: string;

  /** complete only: the payment the money belongs to, when the case has none (an unknown deposit code). */
  @IsOptional()
  @Matches(/^pay_[0-9A-Za-z]{20,64}$/, { message: 'must be a payment id' })
  paymentId?: string;
}

export class ListReviewsQueryDto extends PageQueryDto {
  @IsOptional()
  @IsIn(['open', 'resolved'], { message: 'must be open or resolved' })
  status?: 'open' | 'resolved';
}
