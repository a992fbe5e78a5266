/** Whether an error means a dependency is down (answered 503 with Retry-After, never 500). */
export { isDatabaseUnavailable } from '@payhook/persistence';
