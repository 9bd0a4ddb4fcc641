/**
 * Passwords too common to accept, however long. Two checks: a list of the commonest passwords of 12
 * characters or more (from the public breach-frequency lists), and a rule for the way people lengthen
 * a common word to reach 12 characters: a common base word, repeated or padded with digits and
 * symbols ("Password@2024", "admin12345678", "qwertyqwerty").
 */
const COMMON = new Set([
  '123456789012',
  '1234567890123',
  '12345678901234',
  '123456123456',
  '123123123123',
  '111111111111',
  '000000000000',
  '123456654321',
  '147258369147',
  '987654321098',
  '1q2w3e4r5t6y',
  'qwertyuiop12',
  'qwertyuiopasdf',
  'qwerty123456',
  '1qaz2wsx3edc',
  'zaq12wsxcde3',
  'asdfghjkl123',
  'zxcvbnm12345',
  'passw0rd1234',
  'p@ssw0rd1234',
  'p@ssword1234',
  'iloveyou1234',
  'iloveyouiloveyou',
  'princess1234',
  'sunshine1234',
  'football1234',
  'baseball1234',
  'superman1234',
  'trustno1trustno1',
  'letmein12345',
  'welcome12345',
  'welcome@1234',
  'changeme1234',
  'administrator',
  'administrator1',
  'administrator123',
  'internet1234',
  'computer1234',
  'whatever1234',
  'starwars1234',
  'india@123456',
  'indian123456',
  'mumbai123456',
  'hindustan123',
  'jaihind12345',
  'krishna12345',
  'ganesh123456',
  'abcdefghijkl',
  'abcd1234abcd',
  'abc123abc123',
  'aaaaaaaaaaaa',
  'qwertyqwerty',
  'asdfasdfasdf',
  'passwordpassword',
  'mypassword123',
  'thisismypassword',
  'secretpassword',
  'defaultpassword',
  'masterpassword',
  'youshallnotpass',
]);

const BASE_WORDS = [
  'password',
  'passw0rd',
  'p@ssword',
  'p@ssw0rd',
  'qwerty',
  'qwertyuiop',
  'asdfgh',
  'zxcvbn',
  'letmein',
  'welcome',
  'admin',
  'administrator',
  'iloveyou',
  'monkey',
  'dragon',
  'master',
  'secret',
  'changeme',
  'login',
  'abc',
  'abcdef',
  'test',
  'user',
  'wellbeing',
  'mindfulpath',
  'therapy',
  'centre',
  'center',
  'india',
  'mumbai',
];

/** Whether a password is too common to use (case does not matter). */
export function isCommonPassword(password: string): boolean {
  const p = password.toLowerCase();
  if (COMMON.has(p)) return true;
  // One character, or one short run, repeated ("aaaaaaaaaaaa", "abcabcabcabc").
  for (let n = 1; n <= 4; n++) if (p.length % n === 0 && p.slice(0, n).repeat(p.length / n) === p) return true;
  // Only digits and symbols (dates, phone numbers, keyboard runs).
  if (/^[^a-z]*$/.test(p)) return true;
  // A common word (once or repeated) padded with digits and symbols.
  const letters = p.replace(/[^a-z@0]/g, '');
  for (const w of BASE_WORDS) {
    if (letters === w || (letters.length % w.length === 0 && w.repeat(letters.length / w.length) === letters)) return true;
    const stripped = p.replace(/[^a-z]/g, '');
    const plain = w.replace(/[^a-z]/g, '');
    if (stripped === plain || (stripped.length % plain.length === 0 && plain.repeat(stripped.length / plain.length) === stripped)) return true;
  }
  return false;
}
