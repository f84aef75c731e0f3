-- TPC-H Q6 in SQLite's dialect: forecasting revenue change (DATE = 1994-01-01, DISCOUNT = 0.06, QUANTITY = 24)
select
	sum(l_extendedprice * l_discount) as revenue
from
	lineitem
where
	l_shipdate >= '1994-01-01'
	and l_shipdate < date('1994-01-01', '+1 year')
	and l_discount between 0.05 and 0.07 -- 0.06 ± 0.01 computed: 0.06 + 0.01 is below 0.07 in binary floating point
	and l_quantity < 24
