import json
print(json.loads('{bad'))
