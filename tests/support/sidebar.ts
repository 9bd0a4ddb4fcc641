/** The panel's sidebar links for a super admin, in order: one expectation for the component and the browser tests. */
export const SUPERADMIN_SIDEBAR = [
  'Dashboard',
  'Calendar View',
  'Client List',
  'Cash-up',
  'Waitlist',
  'Packages',
  'Reports',
  'Income',
  'Audit Log',
  'Therapists',
  'Centre',
  'Staff',
  'Job Queues',
  'My Account',
];

/** The same for a plain admin: the desk's screens, without the owner's. */
export const ADMIN_SIDEBAR = ['Dashboard', 'Calendar View', 'Client List', 'Cash-up', 'Waitlist', 'Packages', 'My Account'];
