export * from './auth.js';
export * from './country.js';
export * from './event.js';
