-- A whole organisation's people counts in /website/overview read, per property, dimension and key, one row
-- of the running peaks for each stretch of the range that starts or ends a ten-day block or a year
-- (migration 20261125111839_web_people_running_peaks): about 13,700 rows for a year of 60 properties.
-- Through the primary keys (property, dimension, day or month, key) that was one descent of the index per
-- property and dimension, and a read of the table per row. These indexes hold every column the read takes,
-- the day or month before the dimension: one descent per property, the dimensions filtered in the index,
-- and no read of the table (7,885 → 604 buffers). Each of the overview's two ranking statements (the range
-- and the compare range), a whole organisation over a year: 19.4 → 10.1 ms and 25.9 → 15.3 ms (without and
-- with the indexes alternating, median of 20; the same rows). Rewriting one property's day of dimension
-- rows costs 82 → 89 ms; the block peaks' index takes about as much room as their table.

-- CreateIndex
CREATE INDEX "analytics_dimensions_block_peaks_analytics_property_id_date_idx" ON "analytics_dimensions_block_peaks"("analytics_property_id", "date", "dimension", "key", "total_users_since_start", "total_users_until_end", "active_users_since_start", "active_users_until_end");

-- CreateIndex
CREATE INDEX "analytics_dimensions_year_peaks_analytics_property_id_month_idx" ON "analytics_dimensions_year_peaks"("analytics_property_id", "month", "dimension", "key", "total_users_since_start", "total_users_until_end", "active_users_since_start", "active_users_until_end");

