import { Body, Controller, Get, HttpCode, Post, Query, UseGuards } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { AdminRoute, BODY_ERRORS } from '../../platform/openapi/api-route.decorator';
import { dataOf, listOf } from '../../platform/openapi/schema-builders';
import { AdminGuard } from '@payhook/auth';
import type { DataEnvelope, ListEnvelope } from '@payhook/contracts';
import { IdParam } from '../../platform/http/id-param';
import { ListReviewsQueryDto, ResolveReviewRequestDto } from './dto/resolve-review.request.dto';
import type { ReviewCaseView } from './review-case.view';
import { ReviewsService } from './reviews.service';

@ApiTags('reviews')
@Controller('admin/v1/reviews')
@UseGuards(AdminGuard)
export class ReviewsAdminController {
  constructor(private readonly reviews: ReviewsService) {}

  @Get()
  @AdminRoute({
    summary: 'The review queue: money that could not be matched on its own, oldest first, keyset-paged',
    status: 200,
    response: listOf('ReviewCase'),
    errors: ['parameter_invalid', 'parameter_unknown'],
  })
  list(@Query() query: ListReviewsQueryDto): Promise<ListEnvelope<ReviewCaseView>> {
    return this.reviews.list(query);
  }

  @Get(':id')
  @AdminRoute({
    summary: 'One review case',
    status: 200,
    response: dataOf('ReviewCase'),
  })
  async get(@IdParam('reviewCase') id: string): Promise<DataEnvelope<ReviewCaseView>> {
    return { data: await this.reviews.get(id) };
  }

  @Post(':id/resolve')
  @AdminRoute({
    summary: 'Decide a case: complete its payment, reject, or record a refund',
    status: 200,
    response: dataOf('ReviewCase'),
    errors: [...BODY_ERRORS, 'review_state_conflict', 'payment_state_conflict'],
  })
  @HttpCode(200)
  async resolve(
    @IdParam('reviewCase') id: string,
    @Body() body: ResolveReviewRequestDto,
  ): Promise<DataEnvelope<ReviewCaseView>> {
    return { data: await this.reviews.resolve(id, body) };
  }
}
