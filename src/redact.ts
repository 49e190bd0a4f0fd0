const MASK = '[redacted]';

const escapeRegex = (text: string): string => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * The base64 characters that depend on the secret alone, at each of the three byte alignments:
 * a secret inside any longer base64 text (`user:password` in a Basic header) contains one of them.
 */
function base64Cores(secret: string): string[] {
  const bytes = Buffer.from(secret, 'utf8');
  const cores: string[] = [];
  for (let lead = 0; lead < 3; lead++) {
    const encoded = Buffer.concat([Buffer.alloc(lead), bytes]).toString('base64').replace(/=+$/, '');
    const first = Math.ceil((lead * 8) / 6);
    const last = Math.floor(((lead + bytes.length) * 8) / 6);
    const core = encoded.slice(first, last);
    if (core.length >= 8) cores.push(core, core.replace(/\+/g, '-').replace(/\//g, '_'));
  }
  return [...new Set(cores)];
}

const HTML_NAMED: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

/**
 * The forms a secret takes when echoed: as is, JSON-escaped (some or every character as \uXXXX),
 * URL- and form-encoded (some or every byte as %XX), HTML-escaped and as decimal or hex character
 * references, its UTF-8 and UTF-16 bytes in hex (any letter case), base64 (std and url-safe).
 */
export function secretForms(secret: string): { anyCase: string[]; exact: string[] } {
  const json = JSON.stringify(secret).slice(1, -1);
  const unicodeJson = secret.replace(/[^\x20-\x7e]|["\\/<>&']/g, (ch) => `\\u${ch.charCodeAt(0).toString(16).padStart(4, '0')}`);
  const units = Array.from({ length: secret.length }, (_, i) => secret.charCodeAt(i));
  const everyUnicode = units.map((u) => `\\u${u.toString(16).padStart(4, '0')}`).join('');
  const url = encodeURIComponent(secret);
  const form = new URLSearchParams({ s: secret }).toString().slice(2);
  const utf8 = Buffer.from(secret, 'utf8');
  const everyPercent = [...utf8].map((b) => `%${b.toString(16).padStart(2, '0')}`).join('');
  const points = [...secret].map((ch) => ch.codePointAt(0)!);
  const html = secret.replace(/[&<>"']/g, (ch) => HTML_NAMED[ch]!);
  const decimalRefs = points.map((p) => `&#${p};`).join('');
  const hexRefs = points.map((p) => `&#x${p.toString(16)};`).join('');
  const utf16be = Buffer.from(secret, 'utf16le').swap16();
  const anyCase = [
    ...new Set([
      secret,
      json,
      unicodeJson,
      everyUnicode,
      json.replace(/\//g, '\\/'),
      url,
      form,
      everyPercent,
      html,
      decimalRefs,
      hexRefs,
      utf8.toString('hex'),
      Buffer.from(secret, 'utf16le').toString('hex'),
      utf16be.toString('hex'),
    ]),
  ];
  return { anyCase, exact: base64Cores(secret) };
}

/**
 * Characters that are invisible or removed when text is cleaned for the model (format characters:
 * zero-width space, soft hyphen, tag characters…; C0 and C1 controls: NUL…; joiners and selectors).
 * A secret with any of them inside is the secret once they are cleaned away, so it is masked too.
 */
const INVISIBLE = '[\\p{Cf}\\u0000-\\u001F\\u007F-\\u009F\\u034F\\u115F\\u1160\\u17B4\\u17B5\\u180B-\\u180F\\u3164\\uFE00-\\uFE0F\\uFFA0\\u{E0000}-\\u{E007F}\\u{E0100}-\\u{E01EF}]*';

/** The secret with any run of invisible characters allowed between its characters. */
function interleaved(secret: string): string {
  return [...secret].map(escapeRegex).join(INVISIBLE);
}

interface Compiled {
  /** Text forms, any letter case. */
  anyCase?: RegExp;
  /** The secret with invisible characters inside (cleaning would rebuild it), any letter case. */
  hidden?: RegExp;
  /** Base64 forms, exact (their case is their content). */
  exact?: RegExp;
  /** A secret's head cut off by a clip (`…`, `...` or the end of the text). */
  cut?: RegExp;
}

const compiled = new WeakMap<readonly string[], Compiled>();

function compile(secrets: readonly string[]): Compiled {
  let c = compiled.get(secrets);
  if (c) return c;
  const anyCase: string[] = [];
  const exact: string[] = [];
  const heads: string[] = [];
  const hidden: string[] = [];
  for (const secret of secrets) {
    if (!secret) continue;
    hidden.push(interleaved(secret));
    const forms = secretForms(secret);
    anyCase.push(...forms.anyCase);
    exact.push(...forms.exact);
    for (let n = Math.min(secret.length - 1, 64); n >= 4; n--) heads.push(secret.slice(0, n));
  }
  // Longest first, so a form that contains another is masked whole.
  const alternation = (list: string[]) => [...new Set(list)].sort((a, b) => b.length - a.length).map(escapeRegex).join('|');
  c = {
    anyCase: anyCase.length ? new RegExp(alternation(anyCase), 'gi') : undefined,
    hidden: hidden.length ? new RegExp(hidden.join('|'), 'giu') : undefined,
    exact: exact.length ? new RegExp(alternation(exact), 'g') : undefined,
    cut: heads.length ? new RegExp(`(?:${alternation(heads)})(?=…|\\.\\.\\.|$)`, 'gi') : undefined,
  };
  compiled.set(secrets, c);
  return c;
}

/**
 * Replaces every configured secret in `text`, in every form it is commonly echoed in, and the
 * head of one cut short by a clip: the last guard before a result, an error or a log line leaves.
 * Runs before any truncation; the `cut` rule covers clips made lower down (node error excerpts).
 */
export function redactSecrets(text: string, secrets: readonly string[]): string {
  if (secrets.length === 0 || text.length === 0) return text;
  const { anyCase, hidden, exact, cut } = compile(secrets);
  let out = anyCase ? text.replace(anyCase, MASK) : text;
  if (hidden) out = out.replace(hidden, MASK);
  if (exact) out = out.replace(exact, MASK);
  if (cut) out = out.replace(cut, MASK);
  return out;
}

/** Same as redactSecrets, through every string of a JSON value (keys included). */
export function redactValue<T>(value: T, secrets: readonly string[]): T {
  if (secrets.length === 0) return value; // nothing to mask: no copy
  if (typeof value === 'string') return redactSecrets(value, secrets) as T;
  if (Array.isArray(value)) return value.map((v) => redactValue(v, secrets)) as T;
  if (value && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [redactSecrets(k, secrets), redactValue(v, secrets)])) as T;
  }
  return value;
}
