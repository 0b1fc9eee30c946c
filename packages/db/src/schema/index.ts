export * from './auth.js';
export * from './country.js';
