-- The public booking insert announces itself after commit (0005), so its row has nothing for
-- catalog_changed_notify() to do; calling the function only to return cost every booking a PL/pgSQL
-- call. A trigger's WHEN is checked without one. The statement sets booking.catalog_notify before it
-- inserts, since an AFTER trigger's WHEN is evaluated as the row is written (the function's own check,
-- at the end of the statement, stays as the backstop). Updates and deletes announce as before.
DROP TRIGGER bookings_catalog_changed ON bookings;
--> statement-breakpoint
CREATE TRIGGER bookings_catalog_changed AFTER UPDATE OR DELETE ON bookings
FOR EACH ROW EXECUTE FUNCTION catalog_changed_notify();
--> statement-breakpoint
CREATE TRIGGER bookings_catalog_changed_insert AFTER INSERT ON bookings
FOR EACH ROW WHEN (current_setting('booking.catalog_notify', true) IS DISTINCT FROM 'after_commit')
EXECUTE FUNCTION catalog_changed_notify();
