csv_line = "Tom,25,Boston,Engineer"
fields = csv_line.split(",")
print(fields)
name, age, city, job = fields
print(f"{name} ({age}) works as an {job.lower()} in {city}")
print(" | ".join(fields))
path = "home/user/docs/report.txt"
print(path.split("/")[-1], path.rsplit(".", 1))
print("2024-05-17".split("-"))
