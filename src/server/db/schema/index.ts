export * from './organizations';
export * from './api-keys';
export * from './rate-limits';
export * from './billing';
export * from './sessions';
export * from './uploads';
export * from './idempotency';
export * from './events';
