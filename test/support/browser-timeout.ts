import { timeFor } from './time-budget';

// The browser project's default: a test logs in and walks a user through several pages, each
// checked by axe-core, on a shared CI host where Chromium competes with every other worker.
jest.setTimeout(timeFor({ browser: 4 }));
