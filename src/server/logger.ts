import pino from 'pino';

/** Structured logs (JSON lines on stdout). LOG_LEVEL sets the level (default info; silent in tests). */
export const logger = pino({
  level: process.env.LOG_LEVEL ?? (process.env.NODE_ENV === 'test' ? 'silent' : 'info'),
  base: { service: 'swish' },
});
