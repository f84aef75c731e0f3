-- TPC-H Q8 with JOIN … ON
select
	o_year,
	sum(case
		when nation = 'BRAZIL' then volume
		else 0
	end) / sum(volume) as mkt_share
from
	(
		select
			extract(year from o_orderdate) as o_year,
			l_extendedprice * (1 - l_discount) as volume,
			n2.n_name as nation
		from
			part
			join lineitem on p_partkey = l_partkey
			join supplier on s_suppkey = l_suppkey
			join orders on l_orderkey = o_orderkey
			join customer on o_custkey = c_custkey
			join nation n1 on c_nationkey = n1.n_nationkey
			join region on n1.n_regionkey = r_regionkey
			join nation n2 on s_nationkey = n2.n_nationkey
		where
			r_name = 'AMERICA'
			and o_orderdate between date '1995-01-01' and date '1996-12-31'
			and p_type = 'ECONOMY ANODIZED STEEL'
	) as all_nations
group by
	o_year
order by
	o_year
