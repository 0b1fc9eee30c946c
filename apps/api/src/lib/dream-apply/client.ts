import { AppError } from '@app/contracts';

/**
 * A reader of DreamApply's REST API, version 5, as the public PHP SDK `dream-group/dream-apply-sdk` (v3) uses it:
 * every request carries `Authorization: DREAM apikey="{key}"`; a collection is a JSON object keyed by record id
 * (`GET /applications?byCommenceYear=2021`, `GET /applications/{id}/offers`); a link between records is a URL
 * in the field (`applicant`, an offer's `type`), resolved with a GET of its own, or the record itself when
 * embedded. An applicant has `email`, `phone`, `citizenship` and `name: {given, family, …}`; an offer type has
 * a `title`. Any failure (401, 429, 5xx, a timeout, a body that is not JSON) is one clear error: the caller has
 * not written anything yet.
 */
export interface DreamApplyAccess {
  baseUrl: string;
  apiKey: string;
  /** Per request. */
  timeoutMs: number;
}

export interface DreamApplyAcceptance {
  applicationId: string;
  revised: string | null;
  offerType: string;
  applicant: { given: string | null; family: string | null; email: string | null; phone: string | null; citizenship: string | null };
}

type Json = Record<string, unknown>;

const failure = (code: 'SERVICE_UNAVAILABLE' | 'RATE_LIMITED' | 'CONFLICT', text: string) => new AppError(code, `DreamApply: ${text}`);

/** The offer types that mean the applicant was accepted (the SDK's `Accepted`, `Conditionally accepted`, `Provisionally accepted`). */
export const ACCEPTED_OFFER_TYPES = ['Accepted', 'Conditionally accepted', 'Provisionally accepted'];

export function dreamApplyClient(access: DreamApplyAccess) {
  const base = access.baseUrl.replace(/\/+$/, '') + '/';
  const urlOf = (path: string) => (/^https?:\/\//.test(path) ? path : path.startsWith('/') ? new URL(path, base).toString() : base + path);

  async function getJson(path: string, query: Record<string, string> = {}): Promise<Json> {
    const url = new URL(urlOf(path));
    for (const [k, v] of Object.entries(query)) url.searchParams.set(k, v);
    let res: Response;
    try {
      res = await fetch(url, {
        headers: { Authorization: `DREAM apikey="${access.apiKey}"`, Accept: 'application/json' },
        signal: AbortSignal.timeout(access.timeoutMs),
      });
    } catch (err) {
      const name = (err as { name?: string }).name;
      if (name === 'TimeoutError' || name === 'AbortError') throw failure('SERVICE_UNAVAILABLE', `no answer within ${access.timeoutMs >= 1000 ? `${Math.round(access.timeoutMs / 1000)} s` : `${access.timeoutMs} ms`}`);
      throw failure('SERVICE_UNAVAILABLE', 'cannot be reached (check the base URL in the configuration)');
    }
    if (res.status === 401 || res.status === 403) {
      await res.body?.cancel();
      throw failure('CONFLICT', `the API key was refused (${res.status}): check it in the configuration`);
    }
    if (res.status === 429) {
      await res.body?.cancel();
      const after = res.headers.get('Retry-After');
      throw failure('RATE_LIMITED', `too many requests; try again${after ? ` in ${after} seconds` : ' later'}`);
    }
    if (!res.ok) {
      await res.body?.cancel();
      throw failure('SERVICE_UNAVAILABLE', `answered ${res.status} for ${url.pathname}`);
    }
    let body: unknown;
    try {
      body = JSON.parse(await res.text());
    } catch {
      throw failure('SERVICE_UNAVAILABLE', `answered something that is not JSON for ${url.pathname}`);
    }
    if (typeof body !== 'object' || body === null) throw failure('SERVICE_UNAVAILABLE', `answered an unexpected document for ${url.pathname}`);
    return body as Json;
  }

  /** A linked record: fetched by its URL, or taken as it is when embedded. */
  const linked = async (value: unknown): Promise<Json | null> =>
    typeof value === 'string' ? getJson(value) : typeof value === 'object' && value !== null ? (value as Json) : null;

  const text = (v: unknown) => (typeof v === 'string' && v.trim() !== '' ? v.trim() : typeof v === 'number' ? String(v) : null);

  return {
    /**
     * The applications of the academic year (by commence year) with an accepted offer, revised within the last
     * `days` days (0: all), each with its applicant: everything is fetched before anything is written.
     */
    async acceptedApplications(academicYear: number, days: number, now = new Date()): Promise<DreamApplyAcceptance[]> {
      const applications = await getJson('applications', { byCommenceYear: String(academicYear) });
      const since = days > 0 ? now.getTime() - days * 86_400_000 : null;
      const out: DreamApplyAcceptance[] = [];
      for (const [key, value] of Object.entries(applications)) {
        const app = (typeof value === 'object' && value !== null ? value : {}) as Json;
        const id = text(app.id) ?? key;
        const revised = text(app.revised) ?? text(app.created);
        if (since !== null && (!revised || Date.parse(revised.replace(' ', 'T')) < since)) continue;
        const offers = await getJson(typeof app.offers === 'string' ? app.offers : `applications/${id}/offers`);
        let offerType: string | null = null;
        for (const offer of Object.values(offers)) {
          const o = (offer ?? {}) as Json;
          const type = await linked(o['type-confirmed'] ?? o.type);
          const title = text(type?.title);
          if (title && ACCEPTED_OFFER_TYPES.includes(title)) {
            offerType = title;
            break;
          }
        }
        if (!offerType) continue;
        const applicant = (await linked(app.applicant)) ?? {};
        const name = (applicant.name ?? {}) as Json;
        out.push({
          applicationId: id,
          revised,
          offerType,
          applicant: { given: text(name.given), family: text(name.family), email: text(applicant.email), phone: text(applicant.phone), citizenship: text(applicant.citizenship) },
        });
      }
      return out;
    },
  };
}
