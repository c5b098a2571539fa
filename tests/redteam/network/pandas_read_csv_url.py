# category: network
# attack: pandas.read_csv of a URL
# profile: data_science
import pandas
print(pandas.read_csv("http://127.0.0.1:@PORT@/x.csv"))
