import { Body, Controller, Get, HttpCode, Post, Query, UseGuards } from '@nestjs/common';
import { AdminGuard } from '@payhook/auth';
import type { DataEnvelope, ListEnvelope } from '@payhook/contracts';
import { IdParam } from '../http/id-param';
import { ListReviewsQueryDto, ResolveReviewRequestDto } from './dto/resolve-review.request.dto';
import type { ReviewCaseView } from './review-case.view';
import { ReviewsService } from './reviews.service';

@Controller('admin/v1/reviews')
@UseGuards(AdminGuard)
export class ReviewsAdminController {
  constructor(private readonly reviews: ReviewsService) {}

  @Get()
  list(@Query() query: ListReviewsQueryDto): Promise<ListEnvelope<ReviewCaseView>> {
    return this.reviews.list(query);
  }

  @Get(':id')
  async get(@IdParam('reviewCase') id: string): Promise<DataEnvelope<ReviewCaseView>> {
    return { data: await this.reviews.get(id) };
  }

  @Post(':id/resolve')
  @HttpCode(200)
  async resolve(
    @IdParam('reviewCase') id: string,
    @Body() body: ResolveReviewRequestDto,
  ): Promise<DataEnvelope<ReviewCaseView>> {
    return { data: await this.reviews.resolve(id, body) };
  }
}
