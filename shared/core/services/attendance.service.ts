/**
 * Whether the client came (issue 20): any admin marks a past session ATTENDED or NO_SHOW, and may
 * correct it. Only a session that went ahead on the books: not a block, not cancelled or released,
 * not an unpaid online hold, and started by now at the centre.
 */
import { hasStarted, isHeldSession, type Attendance } from '../../domain/attendance.ts';
import { centreNow, toHhMm } from '../../domain/time.ts';
import type { Db } from '../db/client.ts';
import { AppError } from '../errors.ts';
import { auditableBooking, findBookingForUpdate, updateBookingRow } from '../repositories/admin-booking.repository.ts';
import { insertAudit } from '../repositories/audit.repository.ts';

export type { Attendance };

export async function markAttendance(
  db: Db,
  id: number,
  status: Attendance,
  by: { adminId: number },
  now: Date,
): Promise<{ booking_id: number; attendance: Attendance; message: string }> {
  const today = centreNow(now);
  return db.transaction(async (tx) => {
    const before = await findBookingForUpdate(tx, id);
    if (!before) throw new AppError('not_found', `Booking ${id} was not found.`);
    if (before.bookingType === 'ADMIN_BLOCK') throw new AppError('conflict', `Booking ${id} is a blocked slot, not a session.`);
    if (!isHeldSession(before)) throw new AppError('conflict', `Booking ${id} is cancelled or was never confirmed, so it has no attendance.`);
    if (!hasStarted({ bookingDate: before.bookingDate, start: toHhMm(before.bookingTimeSlotStart) }, today))
      throw new AppError('conflict', `Booking ${id} has not started yet; attendance is marked after the session.`);
    const after = await updateBookingRow(tx, id, { attendance: status, attendanceMarkedAt: now, attendanceMarkedByAdminId: by.adminId, updatedAt: now });
    await insertAudit(tx, {
      adminId: by.adminId,
      actor: `admin:${by.adminId}`,
      action: 'booking.attendance',
      entityType: 'booking',
      entityId: id,
      before: { ...auditableBooking(before), attendance: before.attendance },
      after: { ...auditableBooking(after!), attendance: after!.attendance },
    });
    return { booking_id: id, attendance: status, message: status === 'ATTENDED' ? `Booking ${id} marked attended.` : `Booking ${id} marked no-show.` };
  });
}
