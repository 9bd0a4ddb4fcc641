import { sql } from 'drizzle-orm';
import type { Db } from './client.ts';
import { availabilitySlots, locations, services, therapists, therapistServices } from './schema.ts';

export const DEMO_LOCATIONS = [
  {
    name: 'West Branch',
    description: 'Our original centre: quiet, sunlit rooms two minutes from Borivali West station.',
    address: '2nd Floor, Sai Darshan Building, S.V. Road, Near Borivali West Station, Borivali West, Mumbai, Maharashtra 400092',
    phone: '+91 98200 11111',
  },
  {
    name: 'East Branch',
    description: 'A calm, private space in Kandivali East with parking and step-free access.',
    address: 'Office 104, Shanti Heights, Thakur Village Road, Kandivali East, Mumbai, Maharashtra 400101',
    phone: '+91 98200 22222',
  },
] as const;

/** Service id 1 is the default session every booking starts from. */
export const DEMO_SERVICES = [
  'Therapy Session (60 minutes)',
  'Anxiety (Generalised, Social, Panic)',
  'Depression',
  'Stress Management',
  'Relationship Issues (Couples, Family)',
  'Grief and Loss',
  'Trauma (PTSD)',
  'Self-esteem',
  'Anger Management',
  'Sleep Problems (Insomnia)',
  'Work-life Balance',
  'OCD (Obsessive-Compulsive Disorder)',
  'Adolescent Concerns (Ages 13-18)',
] as const;

type DemoTherapist = {
  name: string;
  title: string;
  specialization: string;
  bio: string;
  priceRupees: number | null;
  image: string;
  type: 1 | 2;
  location: 1 | 2 | null;
  services: number[];
  hours: number[];
};

const WORKDAY = [10, 11, 12, 14, 15, 16, 17];

export const DEMO_THERAPISTS: DemoTherapist[] = [
  {
    name: 'Dr. Asha Mehta',
    title: 'Clinical Psychologist',
    specialization: 'Anxiety and mood disorders',
    bio: 'Warm, structured support for anxiety, low mood and life transitions using CBT and mindfulness.|Cognitive Behavioural Therapy, Mindfulness|12 years of experience|English, Hindi, Gujarati',
    priceRupees: 1500,
    image: 'dr-asha-mehta.png',
    type: 1,
    location: null,
    services: [2, 3, 4, 10, 11],
    hours: WORKDAY,
  },
  {
    name: 'Ms. Priya Nair',
    title: 'Counselling Psychologist',
    specialization: 'Relationships and self-esteem',
    bio: 'Helps individuals and couples communicate better and rebuild confidence.|Person-centred, Emotionally Focused Therapy|7 years of experience|English, Malayalam, Hindi',
    priceRupees: 1200,
    image: 'ms-priya-nair.png',
    type: 1,
    location: null,
    services: [5, 8, 4],
    hours: [9, 10, 11, 12, 15, 16, 17, 18],
  },
  {
    name: 'Mr. Arjun Iyer',
    title: 'Psychotherapist',
    specialization: 'Stress, burnout and work-life balance',
    bio: 'Practical, compassionate therapy for professionals facing stress and burnout.|Acceptance and Commitment Therapy|5 years of experience|English, Tamil',
    priceRupees: 1000,
    image: 'mr-arjun-iyer.png',
    type: 1,
    location: null,
    services: [4, 11, 10],
    hours: [11, 12, 14, 15, 16, 17, 18, 19],
  },
  {
    name: 'Dr. Farah Shaikh',
    title: 'Consultant Psychologist',
    specialization: 'Trauma, grief and adolescent concerns',
    bio: 'Gentle, trauma-informed care for young people and adults coping with loss.|EMDR, Trauma-focused CBT|15 years of experience|English, Hindi, Urdu',
    priceRupees: 2000,
    image: 'dr-farah-shaikh.png',
    type: 1,
    location: null,
    services: [7, 6, 13, 2, 3],
    hours: WORKDAY,
  },
  {
    name: 'Dr. Rohan Kapoor',
    title: 'Clinical Psychologist',
    specialization: 'Depression and anxiety',
    bio: 'Evidence-based, face-to-face therapy in a calm, private setting.|CBT, Dialectical Behaviour Therapy|10 years of experience|English, Hindi, Punjabi',
    priceRupees: 1800,
    image: 'dr-rohan-kapoor.png',
    type: 2,
    location: 1,
    services: [2, 3, 12, 9],
    hours: WORKDAY,
  },
  {
    name: 'Ms. Neha Joshi',
    title: 'Counselling Psychologist',
    specialization: 'Couples and family therapy',
    bio: 'Creates a safe space for couples and families to heal and reconnect.|Systemic Family Therapy, Gottman Method|8 years of experience|English, Marathi, Hindi',
    priceRupees: 1400,
    image: 'ms-neha-joshi.png',
    type: 2,
    location: 1,
    services: [5, 13, 8],
    hours: [10, 11, 12, 16, 17, 18],
  },
  {
    name: 'Dr. Vikram Desai',
    title: 'Psychiatrist and Psychotherapist',
    specialization: 'Mood disorders, OCD and sleep',
    bio: 'Combines psychotherapy with careful assessment for complex concerns.|Psychodynamic Therapy, CBT for Insomnia|18 years of experience|English, Hindi, Marathi',
    priceRupees: 2500,
    image: 'dr-vikram-desai.png',
    type: 2,
    location: 2,
    services: [3, 12, 10, 2, 9, 7],
    hours: WORKDAY,
  },
  {
    name: 'Dr. Sameer Kulkarni',
    title: 'Clinical Psychologist',
    specialization: 'Anger, stress and adolescent concerns',
    bio: 'Steady, down-to-earth support for teenagers, parents and adults.|Solution-focused Brief Therapy, CBT|9 years of experience|English, Marathi, Kannada',
    priceRupees: 1600,
    image: 'dr-sameer-kulkarni.png',
    type: 2,
    location: 2,
    services: [9, 4, 13],
    hours: [9, 10, 11, 12, 14, 15, 16],
  },
];

const hh = (h: number) => `${String(h).padStart(2, '0')}:00`;

/** Seeds the demo centre into an empty database; returns false when data already exists. */
export async function seedDemoData(db: Db): Promise<boolean> {
  return db.transaction(async (tx) => {
    // Two processes starting together must not both seed.
    await tx.execute(sql`select pg_advisory_xact_lock(727275)`);
    const existing = await tx.select({ id: locations.id }).from(locations).limit(1);
    if (existing.length > 0) return false;

    const locs = await tx
      .insert(locations)
      .values([...DEMO_LOCATIONS])
      .returning({ id: locations.id });
    const svc = await tx
      .insert(services)
      .values(DEMO_SERVICES.map((name) => ({ name })))
      .returning({ id: services.id });
    for (const t of DEMO_THERAPISTS) {
      const slug = t.image.replace(/\.png$/, '').replace(/^(dr|ms|mr)-/, '');
      const [row] = await tx
        .insert(therapists)
        .values({
          name: t.name,
          title: t.title,
          specialization: t.specialization,
          bio: t.bio,
          pricePaise: t.priceRupees === null ? null : t.priceRupees * 100,
          imageUrl: t.image,
          type: t.type,
          locationId: t.location === null ? null : locs[t.location - 1]!.id,
          emails: [`${slug.replace('-', '.')}@wellbeingcentre.in`],
        })
        .returning({ id: therapists.id });
      await tx
        .insert(therapistServices)
        .values(t.services.map((serviceIndex, position) => ({ therapistId: row!.id, serviceId: svc[serviceIndex - 1]!.id, position })));
      await tx.insert(availabilitySlots).values(
        t.hours.map((h) => ({
          therapistId: row!.id,
          startTime: hh(h),
          endTime: hh(h + 1),
          locationId: t.location === null ? null : locs[t.location - 1]!.id,
        })),
      );
    }
    return true;
  });
}
