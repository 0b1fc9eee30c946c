import { sql } from 'drizzle-orm';
import type { DbOrTx } from '../client.js';
import { countries } from '../schema/country.js';

/** ISO 3166-1 alpha-2 codes with their English short names. */
const ISO_COUNTRIES = `AD Andorra|AE United Arab Emirates|AF Afghanistan|AG Antigua and Barbuda|AL Albania|AM Armenia|
AO Angola|AR Argentina|AT Austria|AU Australia|AZ Azerbaijan|BA Bosnia and Herzegovina|BB Barbados|BD Bangladesh|
BE Belgium|BF Burkina Faso|BG Bulgaria|BH Bahrain|BI Burundi|BJ Benin|BN Brunei Darussalam|BO Bolivia|BR Brazil|
BS Bahamas|BT Bhutan|BW Botswana|BY Belarus|BZ Belize|CA Canada|CD Congo, Democratic Republic of the|
CF Central African Republic|CG Congo|CH Switzerland|CI Côte d'Ivoire|CL Chile|CM Cameroon|CN China|CO Colombia|
CR Costa Rica|CU Cuba|CV Cabo Verde|CY Cyprus|CZ Czechia|DE Germany|DJ Djibouti|DK Denmark|DM Dominica|
DO Dominican Republic|DZ Algeria|EC Ecuador|EE Estonia|EG Egypt|ER Eritrea|ES Spain|ET Ethiopia|FI Finland|FJ Fiji|
FM Micronesia|FR France|GA Gabon|GB United Kingdom|GD Grenada|GE Georgia|GH Ghana|GM Gambia|GN Guinea|
GQ Equatorial Guinea|GR Greece|GT Guatemala|GW Guinea-Bissau|GY Guyana|HK Hong Kong|HN Honduras|HR Croatia|HT Haiti|
HU Hungary|ID Indonesia|IE Ireland|IL Israel|IN India|IQ Iraq|IR Iran|IS Iceland|IT Italy|JM Jamaica|JO Jordan|
JP Japan|KE Kenya|KG Kyrgyzstan|KH Cambodia|KI Kiribati|KM Comoros|KN Saint Kitts and Nevis|KP Korea, North|
KR Korea, South|KW Kuwait|KZ Kazakhstan|LA Lao People's Democratic Republic|LB Lebanon|LC Saint Lucia|
LI Liechtenstein|LK Sri Lanka|LR Liberia|LS Lesotho|LT Lithuania|LU Luxembourg|LV Latvia|LY Libya|MA Morocco|
MC Monaco|MD Moldova|ME Montenegro|MG Madagascar|MH Marshall Islands|MK North Macedonia|ML Mali|MM Myanmar|
MN Mongolia|MR Mauritania|MT Malta|MU Mauritius|MV Maldives|MW Malawi|MX Mexico|MY Malaysia|MZ Mozambique|
NA Namibia|NE Niger|NG Nigeria|NI Nicaragua|NL Netherlands|NO Norway|NP Nepal|NR Nauru|NZ New Zealand|OM Oman|
PA Panama|PE Peru|PG Papua New Guinea|PH Philippines|PK Pakistan|PL Poland|PS Palestine|PT Portugal|PW Palau|
PY Paraguay|QA Qatar|RO Romania|RS Serbia|RU Russian Federation|RW Rwanda|SA Saudi Arabia|SB Solomon Islands|
SC Seychelles|SD Sudan|SE Sweden|SG Singapore|SI Slovenia|SK Slovakia|SL Sierra Leone|SM San Marino|SN Senegal|
SO Somalia|SR Suriname|SS South Sudan|ST Sao Tome and Principe|SV El Salvador|SY Syria|SZ Eswatini|TD Chad|TG Togo|
TH Thailand|TJ Tajikistan|TL Timor-Leste|TM Turkmenistan|TN Tunisia|TO Tonga|TR Türkiye|TT Trinidad and Tobago|
TV Tuvalu|TW Taiwan|TZ Tanzania|UA Ukraine|UG Uganda|US United States of America|UY Uruguay|UZ Uzbekistan|
VA Holy See|VC Saint Vincent and the Grenadines|VE Venezuela|VN Viet Nam|VU Vanuatu|WS Samoa|XK Kosovo|YE Yemen|
ZA South Africa|ZM Zambia|ZW Zimbabwe`;

export const isoCountries: ReadonlyArray<{ cntry_code: string; cntry_name: string }> = ISO_COUNTRIES.split('|').map(
  (entry) => {
    const trimmed = entry.trim();
    return { cntry_code: trimmed.slice(0, 2), cntry_name: trimmed.slice(3) };
  },
);

/** Seeds the country list once, on an empty table; staff edit it from then on. */
export async function seedCountries(db: DbOrTx): Promise<number> {
  const [row] = await db.select({ n: sql<number>`count(*)::int` }).from(countries);
  if ((row?.n ?? 0) > 0) return 0;
  await db.insert(countries).values([...isoCountries]);
  return isoCountries.length;
}
