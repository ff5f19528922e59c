// What the store knows about app versions beyond its model: which releases run each main-line
// version, and the identity hashes of the LegadoTeam line (76-104), so a file the store does not
// open can still be named. Facts from schema-history.md; the main line's hashes are computed
// from the model (schemas[N].identityHash), the LegadoTeam line's are kept here as data.
import { schemas, SUPPORTED_VERSIONS, type SchemaVersion } from './index.js';

/** The app releases that run each main-line version. */
export const APP_RELEASES: Readonly<Record<SchemaVersion, string>> = {
  49: '3.22.051612 (May 2022) to early 2023',
  50: '3.22.051612 (May 2022) to early 2023',
  51: '3.22.051612 (May 2022) to early 2023',
  52: '3.22.051612 (May 2022) to early 2023',
  53: '3.22.051612 (May 2022) to early 2023',
  54: '3.22.051612 (May 2022) to early 2023',
  55: '3.22.051612 (May 2022) to early 2023',
  56: '3.22.051612 (May 2022) to early 2023',
  57: '3.22.051612 (May 2022) to early 2023',
  58: '3.22.051612 (May 2022) to early 2023',
  59: '3.22.051612 (May 2022) to early 2023',
  60: '3.22.051612 (May 2022) to early 2023',
  61: '3.22.051612 (May 2022) to early 2023',
  62: '3.23.031210 to 3.23.032923 (March 2023)',
  63: '3.23.040118, 3.23.040420',
  64: 'no release',
  65: 'no release',
  66: '3.23.050309',
  67: '3.23.050822',
  68: '3.23.051223 to 3.23.051323',
  69: '3.23.051822 to 3.23.072018',
  70: '3.23.073011',
  71: '3.23.103114 (October 2023) to 3.25 (August 2024), the newest numbered release',
  72: 'no release',
  73: 'no release',
  74: 'no release',
  75: 'the rolling beta builds since 2025-02-24 (3.25.x / 3.26.x)',
};

/** The LegadoTeam line (a separate app id, releases 3.26.*): identity hash per version. */
export const LEGADO_TEAM_HASHES: Readonly<Record<number, string>> = {
  76: '435e0f4a58ab117bc7d64b85c315aab4',
  77: '435e0f4a58ab117bc7d64b85c315aab4',
  78: '3b8510cbf0e41fa2fbbaae3c968df490',
  79: 'ffaa30ee7f60f291109035de73003784',
  80: '40a3d8c4433ad2556f150bce697534bb',
  81: 'ec4a26b163c6100396553fcaf66e3e0e',
  82: 'e025b40eb0b37aed5ee6ebfe5a3d2b8e',
  83: 'bf408fffafcacaaa1f34891bcb1a2aef',
  84: '036e122cd29acf009f74e8d1d805f9d2',
  85: 'cf029dacbe13dc2b89c59fb540a856a3',
  86: 'ceb72a8e184eb17f1e9d3d7045ace7f9',
  87: '6293ba80e0d55589bc8279f953509b72',
  88: 'f97337f4af01f43b581d21a3aefcd053',
  89: '5643a8d6ed1503291cb8f03d5c4854eb',
  90: 'fdb2a99a03b6dd32e5c68520bea1d5f1',
  91: '49867edf7abc6c2d639119b07b5b5975',
  92: 'a87bc0f6addfd7c752abf7151433132d',
  93: '205c764fb9f135f28627d430be008b28',
  94: '4ac3ef15c188f8268f0546721ba68d9d',
  95: 'cdca94f4ee1bcb967216a602b84e7ea5',
  96: '757d9a8c717b857b68ee8d915b15ff80',
  97: '69d3542b2e569046774bef72681c0c83',
  98: '88a75542334ab6626a3c0eeb2c024aa6',
  99: '9e36ad952475022e7cd39e9056acb670',
  100: '61234972c3fa322ca3e79a2148fe5526',
  101: '943ec85410763dd6de396ba7b3c7104b',
  102: 'c28e5935770748e92b7d11f29c9be9c7',
  103: '6a2de98c3466adedd674852fb25a5530',
  104: 'f104c9211bea7c0fe485a49d3c7aaa4a',
};

export const LEGADO_TEAM_RELEASES = 'app releases 3.26.*';

/** A schema named by its identity hash. */
export interface KnownSchema {
  readonly line: 'legado' | 'LegadoTeam';
  /** Every version of that line with this hash (55 and 56 share one, 68 and 69, 76 and 77). */
  readonly versions: readonly number[];
  /** Who runs it, in words. */
  readonly releases: string;
}

/** The line and versions an identity hash belongs to, or undefined for a hash the store does not know. */
export function identifyHash(hash: string | null): KnownSchema | undefined {
  if (hash === null) return undefined;
  const main = SUPPORTED_VERSIONS.filter((v) => schemas[v].identityHash === hash);
  if (main.length)
    return {
      line: 'legado',
      versions: main,
      releases: main
        .map((v) => APP_RELEASES[v])
        .filter((r, i, a) => a.indexOf(r) === i)
        .join('; '),
    };
  const team = Object.entries(LEGADO_TEAM_HASHES)
    .filter(([, h]) => h === hash)
    .map(([v]) => Number(v));
  if (team.length) return { line: 'LegadoTeam', versions: team, releases: LEGADO_TEAM_RELEASES };
  return undefined;
}

/** One line saying what a file of this version and hash is, for errors and `info`. */
export function describeSchema(version: number, hash: string | null): string {
  const known = identifyHash(hash);
  if (known) {
    const line = known.line === 'legado' ? "the app's main line" : 'the LegadoTeam line';
    if (known.versions.includes(version)) return `schema ${version} of ${line} (${known.releases})`;
    return `schema ${version} with the identity hash of ${line} ${known.versions.join('/')}`;
  }
  const what = hash === null ? 'no identity hash' : `identity hash ${hash}, which no known line has`;
  if (version > 75) return `schema ${version} with ${what}: a fork (after 75 a version number alone names no structure)`;
  if (version > 0 && version < 49) return `schema ${version}, older than 49, with ${what}`;
  return `schema ${version} with ${what}`;
}
