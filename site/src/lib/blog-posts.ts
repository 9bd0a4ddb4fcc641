/**
 * Articles shown under /blogs. Plain data (no HTML) so the text is escaped when
 * rendered. Each article gets its own static page at /blogs/<slug>. An article's
 * body is written as text, a block a paragraph (see `article`), so it reads as
 * the article does.
 */

export type BlogBlock =
  | { readonly type: 'p'; readonly text: string }
  | { readonly type: 'h2'; readonly text: string }
  | { readonly type: 'ul'; readonly items: readonly string[] }
  | { readonly type: 'ol'; readonly items: readonly string[] }
  | { readonly type: 'note'; readonly text: string };

export interface BlogPost {
  readonly slug: string;
  readonly title: string;
  readonly description: string;
  readonly excerpt: string;
  readonly category: string;
  /** ISO date (YYYY-MM-DD). */
  readonly published: string;
  readonly readingMinutes: number;
  readonly body: readonly BlogBlock[];
}

/**
 * An article's blocks from its text: blocks are separated by a blank line; `## ` starts a heading,
 * `> ` a note, lines each starting `- ` are a list and `1. ` a numbered list; anything else is a
 * paragraph.
 */
function article(text: string): BlogBlock[] {
  return text
    .trim()
    .split(/\n\s*\n/)
    .map((chunk): BlogBlock => {
      const lines = chunk.split('\n').map((l) => l.trim());
      if (chunk.startsWith('## ')) return { type: 'h2', text: chunk.slice(3).trim() };
      if (chunk.startsWith('> ')) return { type: 'note', text: chunk.slice(2).trim() };
      if (lines.every((l) => l.startsWith('- '))) return { type: 'ul', items: lines.map((l) => l.slice(2)) };
      if (lines.every((l) => /^\d+\. /.test(l))) return { type: 'ol', items: lines.map((l) => l.replace(/^\d+\. /, '')) };
      return { type: 'p', text: lines.join(' ') };
    });
}

export const blogPosts: readonly BlogPost[] = [
  {
    slug: 'what-to-expect-in-your-first-therapy-session',
    title: 'What to expect in your first therapy session',
    description: 'Nervous about starting therapy? Here is what actually happens in a first session, what you might be asked, and how to get the most from it.',
    excerpt:
      'Feeling nervous before your first session is completely normal. Knowing what usually happens, and what you can ask, can make that first hour feel far less daunting.',
    category: 'Getting started',
    published: '2026-10-06',
    readingMinutes: 5,
    body: article(`
Booking a first therapy session can take courage. Many people tell us they thought about it for months before reaching out. If you are feeling unsure or a little anxious, that is completely normal, and it is something you are welcome to say out loud in the session itself.

## The first session is mostly about getting to know you

Your first hour is usually an assessment and an introduction rather than a deep dive. Your therapist will want to understand what brings you in now, how things are affecting your sleep, work, studies and relationships, and what you would like to be different. They may ask about your background, your family, your health and any previous support you have had.

You do not have to share everything at once. You are in charge of the pace, and it is perfectly fine to say "I am not ready to talk about that yet".

## Confidentiality, explained at the start

Your therapist will explain how your information is kept private and the few situations in which confidentiality may need to be broken, such as a serious risk to your safety or someone else's, or a legal requirement. If anything is unclear, ask. Understanding these boundaries is part of building trust.

## Questions you might like to ask

- What approach do you usually use, and why might it suit me?
- How many sessions do people with concerns like mine usually need?
- What can I do between sessions to keep making progress?
- What should I do if I feel worse or need support before our next appointment?

## A few practical tips

- For an online session, find a quiet, private spot and test your internet connection and headphones beforehand.
- For an in-person session, plan to arrive about 10 minutes early so you can settle in.
- Jot down two or three things you want to mention; it is easy to forget them once you start talking.
- Give it more than one session. It often takes two or three meetings to know whether a therapist is the right fit.

Above all, remember that there is no "right" way to do therapy. Showing up, as you are, is enough for a first step.
`),
  },
  {
    slug: 'grounding-techniques-for-everyday-anxiety',
    title: 'Five grounding techniques for everyday anxiety',
    description: 'Simple, evidence-informed grounding exercises you can use anywhere to calm a racing mind and an anxious body.',
    excerpt:
      'When worry takes over, your body can feel as if it is in danger. These five simple grounding exercises help bring your attention back to the present moment.',
    category: 'Anxiety',
    published: '2026-09-15',
    readingMinutes: 4,
    body: article(`
Anxiety is the body's alarm system. It is useful when there is real danger, but it can also go off during a crowded commute, before a presentation or in the middle of the night for no clear reason. Grounding techniques are small, practical tools that help you step out of the spiral of anxious thoughts and reconnect with the here and now.

## 1. The 5-4-3-2-1 senses exercise

Slowly name five things you can see, four things you can touch, three things you can hear, two things you can smell and one thing you can taste. Engaging each sense gently pulls your attention away from worry and towards your surroundings.

## 2. Slow, steady breathing

Breathe in through your nose for a count of four, hold for four, breathe out through your mouth for four and pause for four. Repeat for a minute or two. Making the out-breath slightly longer than the in-breath can be especially calming.

## 3. Feet on the floor

Press your feet firmly into the ground and notice the sensation: the weight of your body, the texture of the floor, the temperature. Wherever you are, at a desk, in a rickshaw or in a queue, this is a discreet way to anchor yourself.

## 4. Temperature change

Hold something cold, such as a glass of water or an ice cube, or splash cool water on your face and wrists. A sudden, safe change in temperature can interrupt a rising wave of panic.

## 5. Name it to tame it

Quietly describe what is happening: "I notice my heart is racing and I am having the thought that something will go wrong." Naming thoughts and feelings, rather than arguing with them, creates a little distance and helps them pass.

## When to seek more support

Grounding helps in the moment, but it is not a cure. If anxiety is affecting your sleep, work, studies or relationships, or you are avoiding places and people because of it, talking to a psychologist can help you understand what keeps the anxiety going and learn longer-term strategies.

> If you ever feel unsafe or overwhelmed, please call 112 for emergencies or Tele-MANAS on 14416 for free, confidential mental health support at any hour.
`),
  },
  {
    slug: 'online-or-in-person-therapy',
    title: 'Online or in person: choosing the right therapy format for you',
    description: 'Both online and face-to-face therapy can be effective. Here is how to decide which suits your needs, routine and comfort.',
    excerpt:
      'Research suggests online therapy can work as well as in-person sessions for many concerns. The best choice depends on your needs, your routine and where you feel most comfortable talking.',
    category: 'Therapy basics',
    published: '2026-08-25',
    readingMinutes: 4,
    body: article(`
One of the first choices you make when booking is how you would like to meet your therapist. Both formats offer the same 60-minute session, the same confidentiality and the same professional care. The difference is mainly about what feels practical and comfortable for you.

## Online sessions may suit you if

- Travel time, traffic or a busy schedule make regular visits difficult.
- You live outside Mumbai or move between cities for work or study.
- You feel more relaxed opening up from a familiar space.
- You have a private room and a reliable internet connection.

## In-person sessions may suit you if

- It is hard to find privacy at home, or you want a clear separation between therapy and everyday life.
- You find it easier to connect with someone in the same room.
- You would like a psychiatric consultation, which always takes place in person at the centre.
- You are bringing a child or teenager, or attending as a couple.

## You can change your mind

Choosing one format now does not lock you in. Some clients start in person and later move online when life gets busy; others do the reverse. Talk to your therapist about what is working for you.

## Getting ready for either format

For online sessions, use headphones, close other apps and let the people you live with know you need an hour of privacy. For in-person sessions at our Borivali West or Kandivali East centres, aim to arrive about 10 minutes early so you have time to settle in before your session begins.
`),
  },
];

export function formatPublished(iso: string): string {
  const date = new Date(`${iso}T00:00:00Z`);
  return new Intl.DateTimeFormat('en-IN', {
    day: 'numeric',
    month: 'long',
    year: 'numeric',
    timeZone: 'UTC',
  }).format(date);
}
