export * from './organizations';
export * from './api-keys';
export * from './rate-limits';
export * from './billing';
