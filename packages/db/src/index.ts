export * from './schema/index.js';
export * from './client.js';
export * from './migrate.js';
export * from './embedded.js';
export * from './backup.js';
export * from './seed/countries.js';
export * from './seed/demo.js';
export * from './seed/scale-invoices.js';
