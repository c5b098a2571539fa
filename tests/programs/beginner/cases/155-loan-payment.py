def monthly_payment(principal, annual_rate, years):
    r = annual_rate / 12
    n = years * 12
    return principal * r * (1 + r) ** n / ((1 + r) ** n - 1)


for years in (15, 20, 30):
    p = monthly_payment(200000, 0.06, years)
    print(f"{years} years: {p:,.2f} per month, {p * years * 12:,.0f} total")
