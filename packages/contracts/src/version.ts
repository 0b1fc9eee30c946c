/** The version label of the top bar (spec §9). */
export const APP_VERSION = 'v2.0.51';
export const API_BASE = '/api/v1.0';
