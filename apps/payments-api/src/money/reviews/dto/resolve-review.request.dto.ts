import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsDefined, IsIn, IsOptional, Matches } from 'class-validator';
import { IsPrintableText } from '../../../platform/http/validators';
import { REVIEW_ACTIONS, type ReviewAction } from '../review-case.view';
import { PageQueryDto } from '../../../platform/http/page-query.dto';

export class ResolveReviewRequestDto {
  @ApiProperty({ enum: REVIEW_ACTIONS })
  @IsDefined()
  @IsIn(REVIEW_ACTIONS, { message: 'must be complete, reject or refund' })
  action!: ReviewAction;

  /** Who decided: the operator API has one token, so the person is named here and kept with the case. */
  @ApiProperty({ maxLength: 200, description: 'the person who decided' })
  @IsDefined()
  @IsPrintableText(200)
  resolvedBy!: string;

  @ApiPropertyOptional({ maxLength: 2000 })
  @IsOptional()
  @IsPrintableText(2000)
  note?: string;

  /** complete only: the payment the money belongs to, when the case has none (an unknown deposit code). */
  @ApiPropertyOptional({
    pattern: '^pay_',
    description: 'complete only: the payment the money belongs to, when the case has none',
  })
  @IsOptional()
  @Matches(/^pay_[0-9A-Za-z]{20,64}$/, { message: 'must be a payment id' })
  paymentId?: string;
}

export class ListReviewsQueryDto extends PageQueryDto {
  @ApiPropertyOptional({ enum: ['open', 'resolved'] })
  @IsOptional()
  @IsIn(['open', 'resolved'], { message: 'must be open or resolved' })
  status?: 'open' | 'resolved';
}
